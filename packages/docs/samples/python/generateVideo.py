# Start generating a video from a text prompt or a PDF file.
# Usage: python3 generateVideo.py <video_setting_id> [text | file.pdf]
import os
import sys

import requests

if len(sys.argv) < 2:
    sys.exit("usage: <video_setting_id> [text | file.pdf]")
setting_id = sys.argv[1]
given = sys.argv[2] if len(sys.argv) > 2 else "Explain photosynthesis."

# multipart/form-data: text fields as (None, value), a file as
# (name, open file, type); requests streams the file.
form = {"video_setting_id": (None, setting_id)}
if given.endswith(".pdf"):
    name = os.path.basename(given)
    form["pdf_file"] = (name, open(given, "rb"), "application/pdf")
else:
    form["text"] = (None, given)

r = requests.post(
    f"{os.environ['VIDEO_API_BASE_URL']}/videos/generate/",
    headers={"Authorization": f"Bearer {os.environ['VIDEO_API_KEY']}"},
    files=form,
    timeout=300,
)
body = r.json()
if not r.ok:
    sys.exit(f"{body['error_code']}: {body['error']}")
# The video is running: poll GET /videos/{video_id}/.
print(body["video_id"])

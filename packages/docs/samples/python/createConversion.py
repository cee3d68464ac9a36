# Convert a completed video into another language: a new
# video; the source video is unchanged.
# Usage: python3 createConversion.py <video_id> [language]
import os
import sys

import requests

if len(sys.argv) < 2:
    sys.exit("usage: <video_id> [language]")
video_id = sys.argv[1]
language = sys.argv[2] if len(sys.argv) > 2 else "en"
base = os.environ["VIDEO_API_BASE_URL"]

r = requests.post(
    f"{base}/videos/{video_id}/conversions/",
    headers={"Authorization": f"Bearer {os.environ['VIDEO_API_KEY']}"},
    # language, aspect_ratio, or both (sent as JSON)
    json={"language": language},
    timeout=30,
)
body = r.json()
if not r.ok:
    # A 400 says why, e.g. LANGUAGE_NOT_SUPPORTED_BY_VOICES.
    sys.exit(f"{body['error_code']}: {body['error']}")
# The new video: poll it like a generation.
print(body["video_id"])

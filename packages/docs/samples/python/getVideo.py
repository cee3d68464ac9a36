# Read a video's status and, once completed, its temporary
# download URL.
# Usage: python3 getVideo.py <video_id>
import os
import sys

import requests

if len(sys.argv) < 2:
    sys.exit("usage: getVideo.py <video_id>")
video_id = sys.argv[1]

r = requests.get(
    f"{os.environ['VIDEO_API_BASE_URL']}/videos/{video_id}/",
    headers={"Authorization": f"Bearer {os.environ['VIDEO_API_KEY']}"},
    timeout=30,
)
video = r.json()
if not r.ok:
    # e.g. 404 NOT_FOUND: unknown, or another account's video
    sys.exit(f"{video['error_code']}: {video['error']}")
# running, completed, failed or expired
print(video["status"])
if video["status"] == "completed":
    # Presigned and temporary: download it soon.
    print(video["download_url"])

# List the video settings and the fields each one takes.
# Usage: python3 listVideoSettings.py
import os
import sys

import requests

base = os.environ["VIDEO_API_BASE_URL"]
headers = {"Authorization": f"Bearer {os.environ['VIDEO_API_KEY']}"}

# Pages of 50: follow has_next.
page = 1
while True:
    r = requests.get(
        f"{base}/video-settings/",
        params={"page": page},
        headers=headers,
        timeout=30,
    )
    body = r.json()
    if not r.ok:
        sys.exit(f"{body['error_code']}: {body['error']}")
    for s in body["results"]:
        fields = ", ".join(s["request_fields"])
        print(f"{s['video_setting_id']}  {s['title']}  [{fields}]")
    if not body["has_next"]:
        break
    page += 1

# List your videos: the first page (50 at most), newest first
# in the sandbox; the order is the service's choice.
# Usage: python3 listVideos.py [page]
import os
import sys

import requests

page = sys.argv[1] if len(sys.argv) > 1 else "1"
r = requests.get(
    f"{os.environ['VIDEO_API_BASE_URL']}/videos/",
    params={"page": page},
    headers={"Authorization": f"Bearer {os.environ['VIDEO_API_KEY']}"},
    timeout=30,
)
body = r.json()
if not r.ok:
    sys.exit(f"{body['error_code']}: {body['error']}")
for v in body["results"]:
    print(f"{v['created_at']}  {v['video_id']}  {v['prompt']}")
print(f"page {body['page']}, {body['total_count']} in all")

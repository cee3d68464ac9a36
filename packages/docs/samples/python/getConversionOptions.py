# Can this video be converted, and into what?
# Usage: python3 getConversionOptions.py <video_id>
import os
import sys

import requests

if len(sys.argv) < 2:
    sys.exit("usage: <video_id>")
base = os.environ["VIDEO_API_BASE_URL"]

r = requests.get(
    f"{base}/videos/{sys.argv[1]}/conversions/",
    headers={"Authorization": f"Bearer {os.environ['VIDEO_API_KEY']}"},
    timeout=30,
)
o = r.json()
if not r.ok:
    sys.exit(f"{o['error_code']}: {o['error']}")
print(f"language: {o['current_language']}")
print(f"aspect ratio: {o['current_aspect_ratio']}")
if o["is_convertible"]:
    print(f"languages: {' '.join(o['available_languages'])}")
    print(f"ratios: {' '.join(o['available_aspect_ratios'])}")
else:
    print("not convertible")

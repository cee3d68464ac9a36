curl -sS --fail-with-body \
  "$VIDEO_API_BASE_URL/videos/?page=1" \
  -H "Authorization: Bearer $VIDEO_API_KEY"

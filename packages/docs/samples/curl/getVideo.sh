curl -sS --fail-with-body \
  "$VIDEO_API_BASE_URL/videos/$VIDEO_ID/" \
  -H "Authorization: Bearer $VIDEO_API_KEY"

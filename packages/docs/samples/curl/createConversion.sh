curl -sS --fail-with-body -X POST \
  "$VIDEO_API_BASE_URL/videos/$VIDEO_ID/conversions/" \
  -H "Authorization: Bearer $VIDEO_API_KEY" \
  -H "Content-Type: application/json" \
  -d '{"language": "en"}'

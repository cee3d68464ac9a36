# A document instead of text: -F "pdf_file=@report.pdf"
curl -sS --fail-with-body -X POST \
  "$VIDEO_API_BASE_URL/videos/generate/" \
  -H "Authorization: Bearer $VIDEO_API_KEY" \
  -F "video_setting_id=$VIDEO_SETTING_ID" \
  -F "text=Explain photosynthesis in two minutes."

from django.urls import path

from . import review_views, views

app_name = "assistant"
urlpatterns = [
    path("", views.chat, name="chat"),
    path("ask/stream", views.ask_stream, name="ask_stream"),
    path("answers/<int:pk>/feedback/", views.answer_feedback, name="answer_feedback"),
    path("chunks/<int:pk>/", views.chunk_detail, name="chunk"),
    path("sources/<int:pk>/", views.source_download, name="source"),
    path("api/ask", views.api_ask, name="api_ask"),
    path("review/", review_views.review_list, name="review_list"),
    path("review/answers/<int:pk>/", review_views.review_detail, name="review_detail"),
    path("review/regressions.jsonl", review_views.regressions_jsonl, name="regressions_jsonl"),
]

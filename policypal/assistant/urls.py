from django.urls import path

from . import views

app_name = "assistant"
urlpatterns = [
    path("", views.chat, name="chat"),
    path("chunks/<int:pk>/", views.chunk_detail, name="chunk"),
    path("sources/<int:pk>/", views.source_download, name="source"),
    path("api/ask", views.api_ask, name="api_ask"),
]

from django.urls import path

from . import views

app_name = "policies"
urlpatterns = [
    path("", views.policy_list, name="policy_list"),
    path("bulk/", views.policy_bulk, name="policy_bulk"),
    path("upload/", views.version_upload, name="upload"),
    path("import/", views.import_upload, name="import_upload"),
    path("import/<uuid:pk>/", views.import_review, name="import_review"),
    path("import/<uuid:pk>/discard/", views.import_discard, name="import_discard"),
    path("import/<uuid:pk>/progress/", views.import_progress, name="import_progress"),
    path("versions/<int:pk>/", views.version_detail, name="version_detail"),
    path("versions/<int:pk>/publish/", views.version_publish, name="version_publish"),
    path("versions/<int:pk>/retire/", views.version_retire, name="version_retire"),
    path("versions/<int:pk>/retry/", views.version_retry, name="version_retry"),
    path("versions/<int:pk>/cancel/", views.version_cancel, name="version_cancel"),
    path("versions/<int:pk>/reindex/", views.version_reindex, name="version_reindex"),
    path("audit/", views.audit_log, name="audit_log"),
    path("sources/<int:pk>/", views.source_download, name="source_download"),
    path("policies/<slug:key>/diff/", views.version_diff, name="version_diff"),
]

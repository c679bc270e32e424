from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from policypal.security.views import LoginView

urlpatterns = [
    path("login/", LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    # The Django admin's own sign-in form would bypass the lockouts: the same view serves it.
    path("django-admin/login/", LoginView.as_view()),
    path("django-admin/", admin.site.urls),
    path("manage/", include("policypal.policies.urls")),
    path("", include("policypal.assistant.urls")),
]

import os

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    # The operators' admin; KNOCK_ADMIN_PATH moves it somewhere less obvious.
    path(os.environ.get("KNOCK_ADMIN_PATH", "admin/"), admin.site.urls),
    path("", include("scorekeeper.urls")),
]

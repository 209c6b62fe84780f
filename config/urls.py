from django.conf import settings
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    # The operators' admin; KNOCK_ADMIN_PATH moves it somewhere less obvious.
    path(settings.KNOCK_ADMIN_PATH, admin.site.urls),
    # The language switch on every page: POST language=de, back to the page it came from.
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("scorekeeper.web.urls")),
]

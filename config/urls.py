from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path

from scorekeeper.api.base import api
from scorekeeper.api.base import not_found as api_not_found

urlpatterns = [
    # The operators' admin; KNOCK_ADMIN_PATH moves it somewhere less obvious.
    path(settings.KNOCK_ADMIN_PATH, admin.site.urls),
    # The language switch on every page: POST language=de, back to the page it came from.
    path("i18n/", include("django.conf.urls.i18n")),
    # The JSON API beside the pages, not under them: the pages never import it.
    path("api/v1/", api.urls),
    re_path(r"^api/v1/(?P<path>.*)$", api_not_found),
    path("", include("scorekeeper.web.urls")),
]

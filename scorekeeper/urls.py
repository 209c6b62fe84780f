from django.urls import path

from . import api, views

urlpatterns = [
    path("", views.referee, name="referee"),
    path("api/v1/rulesets", api.rulesets, name="api-rulesets"),
    path("api/v1/evaluate", api.evaluate_hand, name="api-evaluate"),
    path("api/v1/showdown", api.showdown, name="api-showdown"),
    path("api/v1/openapi.json", api.openapi, name="api-openapi"),
]

from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from tournaments.views.public import favicon

# The API docs page loads Swagger UI from this CDN (drf-spectacular's default) and styles itself inline; its own
# script comes from this site (the split view), so only this page's policy widens, and only by this much.
SWAGGER_CDN = "https://cdn.jsdelivr.net"
api_docs = csp_update(
    {"script-src": [SWAGGER_CDN], "style-src": [SWAGGER_CDN, UNSAFE_INLINE], "img-src": [SELF, SWAGGER_CDN, "data:"]}
)(SpectacularSwaggerSplitView.as_view(url_name="api-schema"))

# Accounts: logging in and out, and changing one's password. No password reset by e-mail: the site sends no mail
# (an administrator sets a new password in the admin).
accounts = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password_change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("tournaments.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", api_docs, name="api-docs"),
    path("accounts/", include(accounts)),
    path("i18n/", include("django.conf.urls.i18n")),
    path("favicon.ico", favicon, name="favicon"),
    path("", include("tournaments.urls")),
]

# JupyterHub 5.4.3 configuration for capenv's capture (read by start.sh through
# `jupyterhub -f`). Everything machine-specific comes from the environment start.sh sets:
#   CAPENV_HUB_PORT        the port the Hub itself listens on (its REST API is /hub/api/)
#   CAPENV_HUB_HOME        the fresh data directory (sqlite database, cookie secret, pid file)
#   CAPENV_PROXY_PORT      the configurable-http-proxy's public port (not used by the capture)
#   CAPENV_PROXY_API_PORT  the proxy's own REST API port (the Hub talks to it)
#   CAPENV_CHP             the configurable-http-proxy executable
import os

c = get_config()  # noqa: F821 (defined by JupyterHub when it loads this file)

home = os.environ["CAPENV_HUB_HOME"]
c.JupyterHub.bind_url = "http://127.0.0.1:%s" % os.environ["CAPENV_PROXY_PORT"]
c.JupyterHub.hub_bind_url = "http://127.0.0.1:%s" % os.environ["CAPENV_HUB_PORT"]
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:%s" % os.environ["CAPENV_PROXY_API_PORT"]
c.ConfigurableHTTPProxy.command = [os.environ["CAPENV_CHP"]]
c.ConfigurableHTTPProxy.auth_token = "capenv-jupyterhub-throwaway-proxy-token"
c.ConfigurableHTTPProxy.pid_file = os.path.join(home, "jupyterhub-proxy.pid")
c.JupyterHub.db_url = "sqlite:///" + os.path.join(home, "jupyterhub.sqlite")
c.JupyterHub.cookie_secret_file = os.path.join(home, "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = os.path.join(home, "jupyterhub.pid")
c.JupyterHub.cleanup_servers = True

# Users exist only as names in the Hub's database (no system accounts, no logins recorded).
c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allow_all = True
c.Authenticator.admin_users = {"admin"}

# The capture's client: a service with a fixed throwaway token and the Hub's admin role.
TOKEN = "capenv-jupyterhub-throwaway-api-token-0001"
c.JupyterHub.services = [{"name": "capenv-driver", "api_token": TOKEN}]
# The Hub's own "admin" role (every scope; only an admin may grant or revoke admin rights).
c.JupyterHub.load_roles = [{"name": "admin", "services": ["capenv-driver"]}]

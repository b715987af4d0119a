"""A JupyterHub for the tests: students log in with any name of the class and the shared
password, each gets a single-user server started as their own Unix user (LocalProcessSpawner)
from the course environment, in their own home. Everything listens on 127.0.0.1.

Read from the environment (set by tests/test_hub.py):
  COURSE_HUB_DIR     where the hub keeps its database, cookie secret and proxy token
  COURSE_HUB_PORT    the public port (the proxy); the hub itself and the proxy's API take the next two
  COURSE_HUB_PROXY   the configurable-http-proxy executable
  COURSE_HUB_ENV     the course environment's prefix (bin/jupyterhub-singleuser)
  COURSE_HUB_USERS   the class, comma-separated Unix user names
  COURSE_HUB_PASSWORD  the shared password of the dummy authenticator
"""

import os
from pathlib import Path

c = get_config()  # noqa: F821  (defined by JupyterHub when it loads this file)

state = Path(os.environ["COURSE_HUB_DIR"])
port = int(os.environ["COURSE_HUB_PORT"])
users = set(os.environ["COURSE_HUB_USERS"].split(","))

c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = port
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = port + 1
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{port + 2}"
c.ConfigurableHTTPProxy.command = [os.environ["COURSE_HUB_PROXY"]]
c.ConfigurableHTTPProxy.should_start = True
c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "cookie_secret")
c.JupyterHub.pid_file = str(state / "jupyterhub.pid")
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True

c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = os.environ["COURSE_HUB_PASSWORD"]
c.Authenticator.allowed_users = users

c.JupyterHub.spawner_class = "localprocess"
env = Path(os.environ["COURSE_HUB_ENV"])
c.Spawner.cmd = [str(env / "bin" / "jupyterhub-singleuser")]
c.Spawner.default_url = "/lab"
c.Spawner.notebook_dir = "~"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.LocalProcessSpawner.shell_cmd = []
c.Spawner.environment = {"PATH": f"{env / 'bin'}:/usr/local/bin:/usr/bin:/bin"}
if os.environ.get("COURSE_HUB_LIBRARY_PATH"):  # where the environment's Python finds libpython
    c.Spawner.environment["LD_LIBRARY_PATH"] = os.environ["COURSE_HUB_LIBRARY_PATH"]

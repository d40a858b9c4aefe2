"""The web-serving layer of the table app: the ASGI app around Flet's web client, who may
reach it (Host/Origin checks, table-mode secrets and roles), how its assets travel
(pre-compressed, cached) and how the server is started."""

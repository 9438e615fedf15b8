"""Offline entry (issue 18): the entry page keeps working when the Wi-Fi drops, with the rules engine in the browser.

A table whose Wi-Fi drops must keep its running totals right, with the engine that settles lines on the server,
never a second one written in JavaScript. ``games/`` is pure Python with no dependencies, so Pyodide (the npm
package ``pyodide``, served as static files under ``/static/pyodide/``) runs it in the browser: ``views.engine``
serves the package as a zip, ``static/offline/engine.js`` loads both and settles a sheet's lines as
``games.sessions.open_sheet(...).add`` does on the server. The service worker (``views.worker``), the queue of
deals kept on the device and their sync (``sync``) are in ``static/offline/`` and here.
"""

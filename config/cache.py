"""Django's Redis cache, with one Redis client per connection pool instead of a new one for every operation.

Django's ``RedisCacheClient.get_client`` builds a ``redis.Redis`` for each call (its constructor fills a table of
about 170 response callbacks): on a poll that only asks the cache two things, that was a tenth of the request.
A ``redis.Redis`` is safe to share between threads (each command takes a connection from the pool), so one per
pool does.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class SharedClientRedisCacheClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client


class SharedClientRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedClientRedisCacheClient

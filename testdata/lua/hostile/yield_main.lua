-- expect: error attempt to yield from outside a coroutine
coroutine.yield("escape")

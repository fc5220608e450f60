-- expect: error too far past
-- rawset of a far integer key would fill the array part up to it.
rawset({}, 2^26 - 1, true)

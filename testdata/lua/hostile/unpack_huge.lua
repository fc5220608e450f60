-- expect: error too many results
return select("#", unpack({}, 1, 1e9))

-- expect: error load is not available
return load("return os")()

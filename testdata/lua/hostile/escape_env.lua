-- expect: error getfenv is not available
return getfenv(print)

-- expect: error width or precision too long
return string.format("%999999999d", 1)

-- expect: error invalid option
return string.format("%T %p %v", 1, {}, print)

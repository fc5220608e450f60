-- result: [1,"two",{"three":3},null]
return 1, "two", { three = 3 }, nil

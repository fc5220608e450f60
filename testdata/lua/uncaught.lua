-- expect: error script:3: denied by policy
print("before")
tools.fail{ message = "denied by policy" }
print("never")

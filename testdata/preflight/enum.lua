-- want: line 3: tools.restart{...}: args.service: want one of "api", "web", "db", got "mail"
for _, s in ipairs({ "api" }) do
  tools.restart{ service = "mail" }
end

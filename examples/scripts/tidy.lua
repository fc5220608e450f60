-- Archive the notes tagged "work": one summary note holding their titles,
-- then the originals deleted. Try it with execlua run --demo --dry-run.
local work = tools.mcp__notes__list_notes{ tag = "work" }.notes
local titles, ids = {}, {}
for i, note in ipairs(work) do
  titles[i], ids[i] = note.title, note.id
end
local summary = tools.mcp__notes__add_note{ title = "Work, archived", body = table.concat(titles, "; ") }
for _, id in ipairs(ids) do
  tools.mcp__notes__delete_note{ id = id }
end
return { archived = #ids, summary_id = summary.id }

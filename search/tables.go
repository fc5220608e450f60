package search

// The word tables the ranking reads, by the names it reads them by, each
// bound to its table in lexicon/*.txt, whose comment says what the
// ranking uses it for. To change a table, edit its file.

// lexicon/synonyms.txt
var (
	verbGroups = lex.groups("verbs")
	nounGroups = lex.groups("nouns")
	related    = lex.groups("related")
)

// lexicon/narrower.txt
var narrower = lex.lists("narrower")

// lexicon/phrasal.txt
var (
	phrasal = lex.lists("phrasal")
	apart   = lex.lists("apart")
)

// lexicon/senses.txt
var senses = lex.senses("senses")

// lexicon/forms.txt
var irregularPlurals = lex.phrases("plurals")

// lexicon/function.txt
var (
	stopWords     = lex.set("stop")
	negations     = lex.set("negations")
	determiners   = lex.set("determiners")
	particles     = lex.set("particles")
	politeWords   = lex.set("polite")
	throughWords  = lex.set("through")
	yesNo         = lex.set("yes-no")
	questionWords = lex.set("questions")
	sqlStart      = lex.set("sql-start")
	sqlClause     = lex.set("sql-clause")
)

// lexicon/roles.txt
var (
	readVerbs   = lex.set("read")
	actVerbs    = lex.set("act")
	runVerbs    = lex.set("run")
	harmVerbs   = lex.set("harm")
	browseVerbs = lex.set("browse")
	mediumWords = lex.set("medium")
)

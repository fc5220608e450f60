package search

// The word tables the ranking reads, by the names it reads them by, each
// bound to its table in lexicon/*.txt, whose comment says what the
// ranking uses it for, and the tables derived from them. To change a
// table, edit its file. They are bound once, when the package starts,
// and never written after: only the lexicon's ablation (make
// eval-lexicon), alone in its own test process, binds a lexicon without
// one table or entry and binds the embedded one back.

// lexicon/synonyms.txt
var verbGroups, nounGroups, related [][]string

// lexicon/narrower.txt
var narrower map[string][]string

// lexicon/phrasal.txt
var phrasal, apart map[string][]string

// lexicon/senses.txt
var senses map[string][]sense

// lexicon/forms.txt
var irregularPlurals map[string]string

// lexicon/function.txt
var stopWords, determiners, particles, throughWords, yesNo, questionWords, sqlStart, sqlClause, sqlObjects map[string]bool

// lexicon/roles.txt
var readVerbs, actVerbs, runVerbs, harmVerbs, browseVerbs, mediumWords map[string]bool

// Derived: verbWords are the words of verbGroups; synonymTable and
// relatedTable each stem's synonyms and looser relations (vocabTables);
// phrasalVerbs the verbs of the phrasal verbs; maxStop the length of the
// longest stop word.
var (
	verbWords                  map[string]bool
	synonymTable, relatedTable map[string][]string
	phrasalVerbs               map[string]bool
	maxStop                    int
)

func init() { bindLexicon(lex) }

// bindLexicon binds the tables to lx's and derives the rest from them.
// The plurals come first, as stem reads them, and the derived tables
// last.
func bindLexicon(lx lexicon) {
	irregularPlurals = lx.phrases("plurals")
	verbGroups, nounGroups, related = lx.groups("verbs"), lx.groups("nouns"), lx.groups("related")
	narrower = lx.lists("narrower")
	phrasal, apart = lx.lists("phrasal"), lx.lists("apart")
	senses = lx.senses("senses")
	stopWords, particles, throughWords = lx.set("stop"), lx.set("particles"), lx.set("through")
	determiners = lx.set("determiners")
	yesNo, questionWords = lx.set("yes-no"), lx.set("questions")
	sqlStart, sqlClause, sqlObjects = lx.set("sql-start"), lx.set("sql-clause"), lx.set("sql-object")
	readVerbs, actVerbs, runVerbs, harmVerbs = lx.set("read"), lx.set("act"), lx.set("run"), lx.set("harm")
	browseVerbs, mediumWords = lx.set("browse"), lx.set("medium")
	verbWords = wordsOf(verbGroups)
	synonymTable, relatedTable = vocabTables()
	phrasalVerbs = verbsOf(phrasal)
	maxStop = longest(stopWords)
}

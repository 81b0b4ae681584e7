// The one way envlock writes a word for a POSIX shell (a RUN line, a batch script, Enroot's
// /etc/rc): in single quotes, where nothing is special but the quote itself.
#pragma once

#include <string>
#include <string_view>

namespace envlock::util {

// Whether a word that needs no quotes is quoted all the same.
enum class QuoteWhen { always, needed };

// `word` as one shell word: 'word', each ' written as '\'' ("it's" -> 'it'\''s'). With
// QuoteWhen::needed, a non-empty word of only [A-Za-z0-9_./=:,+@%-] stays as it is. The empty
// word is ''. A line break stays inside the quotes; callers whose line cannot hold one refuse it.
std::string shell_quote(std::string_view word, QuoteWhen when = QuoteWhen::always);

} // namespace envlock::util

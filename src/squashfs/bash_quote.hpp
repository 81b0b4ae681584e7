// Words quoted the way bash 5's ${word@Q} quotes them, which Enroot uses for /etc/rc's exec
// lines. The result depends on the locale bash runs in: a word with a byte that is not printable
// there is written in ANSI-C form ($'...'), others in single quotes ('it'\''s').
#pragma once

#include "lock/lock.hpp"

#include <string>
#include <string_view>

namespace envlock::squashfs {

// `word` quoted as bash 5.2's ${word@Q} quotes it under `locale`:
// - C: printable ASCII stays; every other byte makes the word $'...', with \a \b \E \f \n \r \t \v,
//   \\ and \' for their characters and \ooo (octal) for the rest, each byte above 0x7f included;
// - C.UTF-8: as C, except that a well-formed UTF-8 character that glibc calls printable
//   (printable_table.hpp) stays as it is; bytes of malformed or unprintable characters are \ooo.
std::string bash_quote(std::string_view word, lock::EnrootLocale locale);

} // namespace envlock::squashfs

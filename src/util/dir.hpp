// Folders: the one folder listing (every module that reads a folder's entries by descriptor uses
// it), over an owned directory stream.
#pragma once

#include "util/result.hpp"

#include <string>
#include <vector>

namespace envlock::util {

// The names in the open folder `dir` (without "." and ".."), in the order the file system gives
// them; `dir` itself stays open and unmoved. Fails with an error of `code` naming `shown`:
// "SHOWN: cannot open: REASON" or "SHOWN: cannot list: REASON".
Result<std::vector<std::string>> names_in_folder(int dir, const std::string& shown,
                                                 ExitCode code = ExitCode::environment);

} // namespace envlock::util

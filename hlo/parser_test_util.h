#ifndef XLA_INDEX_HLO_PARSER_TEST_UTIL_H_
#define XLA_INDEX_HLO_PARSER_TEST_UTIL_H_

// The two checks of the parser's syntax tests: an accepted text parses,
// verifies and round-trips through the printer; a refused text fails at a
// given line:column with a given message.

#include <memory>
#include <string>

#include "hlo/module.h"

namespace xla_index {

/// Parses and verifies `text`; printing it and reparsing the printed text
/// must print it again unchanged. Returns the module (null on failure) for
/// further checks.
std::unique_ptr<HloModule> ExpectAccepted(const std::string& text);

/// Parsing and verifying `text` fails with an error that starts with
/// `location` ("line:column") and contains `message`.
void ExpectRejected(const std::string& text, const std::string& location,
                    const std::string& message);

}  // namespace xla_index

#endif  // XLA_INDEX_HLO_PARSER_TEST_UTIL_H_

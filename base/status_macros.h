#ifndef XLA_INDEX_BASE_STATUS_MACROS_H_
#define XLA_INDEX_BASE_STATUS_MACROS_H_

// Early returns on error, as XLA's TF_RETURN_IF_ERROR and
// TF_ASSIGN_OR_RETURN:
//
//   XI_RETURN_IF_ERROR(VerifyShape(shape));
//   XI_ASSIGN_OR_RETURN(Shape shape, ParseShape(text));
//
// `expr` is evaluated once. XI_ASSIGN_OR_RETURN declares or assigns `lhs`
// from the value of an absl::StatusOr, or returns its status.

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define XI_RETURN_IF_ERROR(expr)             \
  do {                                       \
    ::absl::Status xi_status_ = (expr);      \
    if (!xi_status_.ok()) return xi_status_; \
  } while (false)

#define XI_STATUS_MACROS_CONCAT_INNER(a, b) a##b
#define XI_STATUS_MACROS_CONCAT(a, b) XI_STATUS_MACROS_CONCAT_INNER(a, b)

#define XI_ASSIGN_OR_RETURN(lhs, expr)                                       \
  XI_ASSIGN_OR_RETURN_IMPL(XI_STATUS_MACROS_CONCAT(xi_status_or_, __LINE__), \
                           lhs, expr)

#define XI_ASSIGN_OR_RETURN_IMPL(statusor, lhs, expr) \
  auto statusor = (expr);                             \
  if (!statusor.ok()) return statusor.status();       \
  lhs = std::move(statusor).value()

#endif  // XLA_INDEX_BASE_STATUS_MACROS_H_

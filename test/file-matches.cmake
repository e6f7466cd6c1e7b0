# SPDX-License-Identifier: GPL-2.0-only
# Checks that FILE exists and contains a match of the regular expression PATTERN.
if(NOT EXISTS ${FILE})
  message(FATAL_ERROR "${FILE} was not written")
endif()
file(READ ${FILE} text)
if(NOT text MATCHES "${PATTERN}")
  message(FATAL_ERROR "${FILE} does not match '${PATTERN}':\n${text}")
endif()

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CLI layer the three programs share, one header per concern; a
 * program includes this one, a file of src/cli/ only what it uses.
 */
#ifndef FATTRS_CLI_H
#define FATTRS_CLI_H

#include "msg.h"
#include "quote.h"
#include "options.h"
#include "parse.h"
#include "command.h"
#include "inherit.h"
#include "buf.h"
#include "json.h"

#endif /* FATTRS_CLI_H */

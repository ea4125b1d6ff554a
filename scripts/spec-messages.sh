#!/usr/bin/env bash
# The user-visible messages of the product spec, one a line, in the spec's order:
#   scripts/spec-messages.sh [SPEC_DIR] > docs/spec-messages.txt     (SPEC_DIR: ../shared/spec)
# A message is
#   - a quoted string in the prose: "…" anywhere, '…' opened after a space or '(' and closed before
#     a space, punctuation or the line's end (so the apostrophes of "portal's", "Can't" and the
#     quotes inside "Cannot add '{file}' …" do not end it);
#   - a cell of a table column whose header names a message ("Overlay message");
# kept when it reads as text: two words once the {placeholders} are left out, or one capitalised
# word ending in '...', '.', '!' or ':' ('Oops...', 'Editing: {path}'). Codes, paths, single
# words ('master', 'join') and the other columns of tables (calls, constants) are left out.
# Each message is printed once. specmessages_test.go checks that the product shows each one or
# that docs/decisions.md "Spec messages not shown" gives the reason it does not.
set -euo pipefail
dir=${1:-../shared/spec}
perl -CSD -ne '
  BEGIN { our (%seen, @cols, $prev_table) }
  chomp;
  my @found;
  if (/^\|/) {
    my @cells = split /\s*\|\s*/; shift @cells;
    if (!$prev_table) {                                   # the header row
      @cols = grep { $cells[$_] =~ /message/i } 0 .. $#cells;
    } elsif (!/^\|[\s|:-]+\|?$/) {                        # a body row (not the |---| line)
      push @found, grep { defined && length } @cells[@cols];
    }
    $prev_table = 1;
  } else {
    $prev_table = 0;
  }
  unless (/^\|/ && @cols) {
    push @found, $1 while /(?<![\w\x27])"([^"\n]+)"(?!\w)/g;
    push @found, $1 while /(?:^|(?<=[\s(]))\x27((?:[^\x27\n]|\x27(?=[\w{\x27]))+?)\x27(?=[\s.,;:)!?]|$)/g;
  }
  for my $m (@found) {
    $m =~ s/^\s+|\s+$//g;
    (my $text = $m) =~ s/\{[^}]*\}//g;
    next unless $text =~ /[A-Za-z]{2,}[ ]+\S*[A-Za-z]/ || $text =~ /^\s*[A-Z][a-z]+(\.\.\.|[.!:])\s*$/;
    print "$m\n" unless $seen{$m}++;
  }
' "$dir"/*.md

// The usage texts of `isocheck run` and `isocheck hermitage`, apart so that `isocheck --help` loads no driver.

export const RUN_USAGE = `usage: isocheck run [--db URL] [--isolation LEVEL] [--workload list-append|rw-register]
                    [--clients N] [--txns N | --seconds S] [--keys K] [--ops-per-txn A..B] [--seed S] [-o FILE] [--edn FILE]
  --db           sqlite:PATH, postgres://USER@HOST:PORT/DB, mysql://USER@HOST:PORT/DB (MariaDB too);
                 default: a fresh SQLite file in a temporary directory
  --isolation    the database's own name: read-uncommitted, read-committed, repeatable-read, serializable
                 (default: the database's default; SQLite has serializable only)
  --workload     list-append (default when this build checks list-append histories) or rw-register
  --clients      concurrent clients, one connection each (default 8; at most 1000, 100 with SQLite)
  --txns         transactions in all; or --seconds: run this long (default 10 s)
  --keys         keys the transactions pick from, uniformly (default 8, at most 100000); list-append
                 moves on to a fresh key after 64 appends to one, so that reads stay short
  --ops-per-txn  operations per transaction, uniformly from A to B (default 1..4); half reads, half writes
  --seed         seed of the transaction contents (default 1)
  -o             where the history goes (default: a temporary directory; the path is printed);
                 checked before the run, an existing file replaced atomically at the end (a file:
                 not -, standard output is the run's report)
  --edn          also write the run as a Jepsen history (EDN: :invoke/:ok/:fail/:info events)`;


export const HERMITAGE_USAGE = `usage: isocheck hermitage [--db URL] [--isolation L,L…] [-o DIR] [--block-ms N]
  --db           as for run (default: a fresh SQLite file)
  --isolation    the levels to test (default: every level the database offers)
  -o             the directory for the scenario histories: an existing one, or a new one in an existing
                 parent (default: a temporary directory)
  --block-ms     a step that has not returned after this long is blocked (default 500)`;

// The driver for a target.

import type { Driver } from './driver.ts';
import { MysqlDriver } from './mysql-driver.ts';
import { PgDriver } from './pg-driver.ts';
import { SqliteDriver } from './sqlite-driver.ts';
import type { Target } from './targets.ts';

export function driverFor(target: Target): Driver {
  switch (target.kind) {
    case 'sqlite':
      return new SqliteDriver(target.location);
    case 'postgres':
      return new PgDriver(target.location);
    case 'mysql':
      return new MysqlDriver(target.location);
  }
}

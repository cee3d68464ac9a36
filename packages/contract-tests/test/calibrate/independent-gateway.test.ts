// @module-tag full/matrix
// The gateway of the servers the suite was not tuned to, calibrated and compared (independent.ts).
import { independentServer } from './independent.ts';

independentServer('gateway');

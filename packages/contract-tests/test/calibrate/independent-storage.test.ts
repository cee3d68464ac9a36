// @module-tag full/matrix
// The storage of the servers the suite was not tuned to, calibrated and compared (independent.ts).
import { independentServer } from './independent.ts';

independentServer('storage');

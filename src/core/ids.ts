// The one id generator: time-ordered UUID v7, which index far better than random ids.
import { v7 as uuidv7 } from 'uuid';

export const newId = (): string => uuidv7();

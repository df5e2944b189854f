import { afterEach } from 'vitest';
import { closeTestStorages } from './test-app.js';

afterEach(closeTestStorages);

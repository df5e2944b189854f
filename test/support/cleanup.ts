import { afterAll, afterEach } from 'vitest';
import { closeFileStorages, closeTestStorages } from './test-app.js';

afterEach(closeTestStorages);
afterAll(closeFileStorages);

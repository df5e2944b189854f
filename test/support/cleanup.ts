import { afterAll, afterEach } from 'vitest';
import { closeFileResources, closeTestResources } from './test-app.js';

afterEach(closeTestResources);
afterAll(closeFileResources);

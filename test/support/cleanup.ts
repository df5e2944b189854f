import { afterAll, afterEach } from 'vitest';
import { closeFileResources, closeTestResources } from './resources.js';

afterEach(closeTestResources);
afterAll(closeFileResources);

// Worker-thread entry when Slidewright runs from its TypeScript sources (tests, `npm run dev`):
// registers tsx inside the thread before loading the task module, so the thread never depends
// on a loader inherited from the parent being ready in time. The build runs cpu-task.js directly.
import { register } from 'tsx/esm/api';

register();
const task = await import('./cpu-task.ts');
export default task.default;

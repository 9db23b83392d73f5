import type { StubHandler } from './fetch-stub';

/** The edit-topic page's reads for one ready topic, 'Pods' of 'Kubernetes Basics'. */
export function editTopicRoutes(
  extra: { caption_tracks?: unknown[]; transcript?: string | null } = {},
): Record<string, StubHandler> {
  return {
    'get-topic-details': () => ({
      body: {
        success: {
          course: 'Kubernetes Basics',
          course_slug: 'kube',
          module: 'Getting started',
          module_id: 1,
          topic: 'Pods',
          topic_id: 11,
          tslug: 'pods',
          description: 'What a pod is',
          video_status: 'ready',
          video_error: null,
          duration: 64,
          caption_tracks: extra.caption_tracks ?? [],
          transcript: extra.transcript ?? null,
        },
      },
    }),
    'get-course-details': () => ({ body: { success: { id: 1, name: 'Kubernetes Basics', slug: 'kube' } } }),
    'get-courses': () => ({ body: { list: [{ id: 1, name: 'Kubernetes Basics', slug: 'kube' }], total: 1 } }),
    'get-modules': () => ({ body: { list: [{ id: 1, name: 'Getting started' }] } }),
  };
}

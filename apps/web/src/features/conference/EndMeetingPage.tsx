import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { apiPost } from '../../api/client';
import { getToken } from '../../api/session';
import { Loading } from '../../ui/Loading';
import { PageHeader } from '../../ui/PageHeader';

/** /end-meeting/{slug}: clears the caller's session markers of the training and returns to the site root. */
export function EndMeetingPage() {
  const { slug = '' } = useParams();
  const navigate = useNavigate();
  useEffect(() => {
    const done = () => navigate('/', { replace: true });
    if (!getToken()) {
      done();
      return;
    }
    apiPost('end-meeting', { slug }).then(done, done);
  }, [slug, navigate]);
  return (
    <>
      <PageHeader title="Ending the meeting" />
      <Loading label="Ending the meeting…" />
    </>
  );
}

FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir --extra-index-url https://download.pytorch.org/whl/cpu -r requirements.txt
COPY . .
# Build steps sign nothing, but the settings refuse to load without a SECRET_KEY when DEBUG is false:
# give them a throwaway one (the running containers get the real one from docker-compose).
ARG BUILD_SECRET_KEY=build-time-only-key-that-signs-nothing
RUN SECRET_KEY=$BUILD_SECRET_KEY python manage.py collectstatic --noinput || true
# the ONNX (fp32 and int8) files of the bundled model, exported from local files (no download)
RUN SECRET_KEY=$BUILD_SECRET_KEY POLICYPAL_ONNX_DIR=/app/onnx python manage.py export_onnx
ENV POLICYPAL_ONNX_DIR=/app/onnx
EXPOSE 8000

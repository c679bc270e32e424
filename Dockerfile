FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir --extra-index-url https://download.pytorch.org/whl/cpu -r requirements.txt
COPY . .
RUN python manage.py collectstatic --noinput || true
# the ONNX (fp32 and int8) files of the bundled model, exported from local files (no download)
RUN POLICYPAL_ONNX_DIR=/app/onnx python manage.py export_onnx
ENV POLICYPAL_ONNX_DIR=/app/onnx
EXPOSE 8000
